import type { TextResult } from '../protocol/task';

/**
 * The TypeScript type of a result that conforms to a `resultSchema` written `as const`: objects with their
 * `properties` (keys in `required` mandatory, others optional), arrays of their `items`, the four scalar types,
 * `enum` and `const`. Anything it cannot read becomes `unknown`.
 *
 * @example
 * const schema = {
 *   type: 'object',
 *   properties: { name: { type: 'string' }, price: { type: 'number' } },
 *   required: ['name'],
 * } as const;
 * type Product = ResultOf<typeof schema>; // { name: string; price?: number }
 */
export type ResultOf<S> = S extends undefined | null
  ? TextResult
  : S extends { const: infer C }
    ? C
    : S extends { enum: readonly (infer E)[] }
      ? E
      : S extends { type: 'string' }
        ? string
        : S extends { type: 'number' | 'integer' }
          ? number
          : S extends { type: 'boolean' }
            ? boolean
            : S extends { type: 'array'; items: infer I }
              ? ResultOf<I>[]
              : S extends { type: 'array' }
                ? unknown[]
                : S extends { properties: infer P }
                  ? ObjectOf<P, RequiredKeys<S>>
                  : S extends { type: 'object' }
                    ? Record<string, unknown>
                    : unknown;

type RequiredKeys<S> = S extends { required: readonly (infer K)[] } ? K & string : never;

type ObjectOf<P, R extends string> = Flatten<
  { -readonly [K in keyof P & R]: ResultOf<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: ResultOf<P[K]> }
>;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
