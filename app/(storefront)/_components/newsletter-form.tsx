'use client';
import { signUpForNewsletter } from '../_actions/signups';
import type { NewsletterStrings } from '../_lib/i18n/islands';
import { SignupForm } from './signup-form';

export function NewsletterForm({ t }: { t: NewsletterStrings }) {
  return (
    <SignupForm
      action={signUpForNewsletter}
      consentText={t.newsletterConsent}
      submitLabel={t.newsletterSubmit}
      doneText={t.newsletterDone}
      t={t}
      compact
    />
  );
}
