import { cartCommandRoute } from '../../../_lib/cart-command-route';
import { addBundle } from '../../../_lib/cart-commands';

// POST /shop-api/cart/bundles — "Add bundle" on a product page (productHandle, bundleId).
export const POST = cartCommandRoute(addBundle);
