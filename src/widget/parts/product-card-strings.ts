export type CartState = 'idle' | 'pending' | 'done' | 'failed';

/**
 * The product cards' words: the list's name, "Add to cart" in each state, and what a screen reader hears as the state
 * changes (`{name}`: the product's). English here, bundled into the product cards' chunk (product-cards.tsx); every
 * other language keeps its table in its own locale chunk (`productCards` in locales/<tag>.ts), which only a shopper
 * in that language fetches, so everything the widget can load carries one language's card words, not four (issue 35,
 * docs/performance.md).
 */
export interface ProductCardStrings {
  list: string;
  cart: Record<CartState, string>;
  said: Record<CartState, string>;
}

export const PRODUCT_CARDS_ENGLISH: ProductCardStrings = {
  list: 'Products',
  cart: {
    idle: 'Add to cart',
    pending: 'Adding…',
    done: 'Added ✓',
    failed: 'Not added. Try again',
  },
  said: {
    idle: '',
    pending: 'Adding {name} to the cart',
    done: '{name} is in the cart',
    failed: '{name} could not be added to the cart',
  },
};
