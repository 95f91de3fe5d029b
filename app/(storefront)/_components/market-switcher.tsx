import type { Market } from '@/lib/contract/catalog';
import { setPreferences } from '../_actions/preferences';
import { formatLanguage } from '../_lib/format';
import { ReturnToInput } from './return-to-input';

type Props = { markets: Market[]; market: string; locale: string; label: string; apply: string };

/** A plain form: works without JavaScript; the choice is kept in cookies. */
export function MarketSwitcher({ markets, market, locale, label, apply }: Props) {
  return (
    <form action={setPreferences} className="market-form">
      <label htmlFor="preference">{label}</label>
      {/* Keyed by the choice: after the form resets, it shows the pair now in effect. */}
      <select key={`${market}|${locale}`} id="preference" name="preference" defaultValue={`${market}|${locale}`}>
        {markets.flatMap((m) =>
          m.locales.map((l) => (
            <option key={`${m.id}|${l}`} value={`${m.id}|${l}`} lang={l}>
              {`${m.name} (${m.currency}) · ${capitalise(formatLanguage(l, l))}`}
            </option>
          )),
        )}
      </select>
      <ReturnToInput />
      <button type="submit">{apply}</button>
    </form>
  );
}

function capitalise(text: string) {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
