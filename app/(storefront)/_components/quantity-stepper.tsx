import { MAX_QUANTITY } from '../_lib/cart';
import { fill, type Dictionary } from '../_lib/i18n';

/**
 * A cart line's − quantity + : two small forms posting the line's new quantity to `action`
 * (a line's or a bundle's), so they work without JavaScript. `field` names the line.
 */
export function QuantityStepper({
  action,
  field,
  quantity,
  title,
  t,
}: {
  action: (form: FormData) => Promise<void>;
  field: { name: string; value: string };
  quantity: number;
  title: string;
  t: Dictionary;
}) {
  return (
    <div className="qty">
      <form action={action}>
        <input type="hidden" name={field.name} value={field.value} />
        <input type="hidden" name="quantity" value={quantity - 1} />
        <button type="submit" aria-label={fill(t.decrease, { title })} disabled={quantity <= 1}>
          −
        </button>
      </form>
      <output aria-label={fill(t.quantityOf, { title })} aria-live="polite">
        {quantity}
      </output>
      <form action={action}>
        <input type="hidden" name={field.name} value={field.value} />
        <input type="hidden" name="quantity" value={quantity + 1} />
        <button type="submit" aria-label={fill(t.increase, { title })} disabled={quantity >= MAX_QUANTITY}>
          +
        </button>
      </form>
    </div>
  );
}
