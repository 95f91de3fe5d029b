'use client';

import { useState } from 'react';

// One small island, as a product page has (a variant picker): its module, hydration data
// and props are part of what a render costs.
export function Choice({ options }) {
  const [chosen, setChosen] = useState(options[0]);
  return (
    <fieldset>
      {options.map((option) => (
        <button key={option} type="button" aria-pressed={chosen === option} onClick={() => setChosen(option)}>
          {option}
        </button>
      ))}
    </fieldset>
  );
}
