/** The storefront's own cart, which the README's React example calls. */
export function addToCart(id: string | undefined): void {
  void id;
}
