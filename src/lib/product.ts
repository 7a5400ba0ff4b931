import { getEnvironment } from './env';

/** The product's name lives here only; PRODUCT_NAME overrides it. Server-side; pass it down to client components. */
export function getProductName(): string {
  return getEnvironment().PRODUCT_NAME;
}
