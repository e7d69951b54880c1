/** Types of scripts/eval-catalog.mjs, for the unit tests (TypeScript). */
export interface CatalogItem {
  id: number;
  title: string;
  description: string;
  category: string;
  price: number;
  rating?: number;
  stock: number;
  availabilityStatus: 'In Stock' | 'Low Stock' | 'Out of Stock';
  brand?: string;
  tags: string[];
  sku?: string;
  thumbnail?: string;
}

export interface CardLike {
  id?: string;
  url?: string;
  name?: string;
  price?: string;
}

export declare function inStock(product: CatalogItem): boolean;
export declare function readCatalog(file?: string): CatalogItem[];
export declare function productUrl(product: CatalogItem): string;
export declare function feedProduct(product: CatalogItem): Record<string, unknown>;
export declare function feedOf(products: CatalogItem[]): Record<string, unknown>[];
export declare function productIndex(
  products: CatalogItem[],
): (card: CardLike | null | undefined) => CatalogItem | null;
