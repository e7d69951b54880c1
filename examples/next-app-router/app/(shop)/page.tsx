export default function HomePage() {
  return (
    <>
      <h1>Welcome to the shop</h1>
      <p>Questions? Press Help, or the chat button in the corner.</p>
    </>
  );
}
