export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <h1>Product {id}</h1>
      <p>Ask the assistant whether it comes in another colour.</p>
    </>
  );
}
