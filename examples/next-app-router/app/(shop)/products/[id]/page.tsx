import { notFound } from 'next/navigation';
import { products } from '../../../products';
import { ProductContext } from './product-context';

export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const product = products[id];
  if (!product) notFound();
  return (
    <>
      <h1>{product.name}</h1>
      <p>{product.price}</p>
      <p>Ask the assistant whether it comes in another colour.</p>
      <ProductContext product={{ id, ...product }} />
    </>
  );
}
