'use client';
import { signUpForNewsletter } from '../_actions/signups';
import { useT } from './i18n-context';
import { SignupForm } from './signup-form';

export function NewsletterForm({ consentText }: { consentText: string }) {
  const t = useT();
  return <SignupForm action={signUpForNewsletter} consentText={consentText} submitLabel={t.newsletterSubmit} doneText={t.newsletterDone} compact />;
}
