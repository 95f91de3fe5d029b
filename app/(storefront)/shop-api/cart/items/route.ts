import { cartCommandRoute } from '../../../_lib/cart-command-route';
import { addLine } from '../../../_lib/cart-commands';

// POST /shop-api/cart/items — "Add to cart" on a product page (variantId, quantity, productHandle).
export const POST = cartCommandRoute(addLine);
