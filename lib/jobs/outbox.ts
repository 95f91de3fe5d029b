import 'server-only';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { configuredMailer, drainSettings } from '@/lib/mail/config';
import { drainOutbox, drainerId } from '@/lib/mail/drain';
import type { Job } from './types';

/**
 * Sends what the outbox holds that is due (signup confirmations, back-in-stock notices). The
 * drain leases the rows it sends, so any number of passes on any number of instances send
 * each message once.
 */
export const outboxJob: Job = {
  name: 'outbox',
  about: 'send the mails that are due',
  everyMs: () => (env().OUTBOX_DRAIN === 'off' ? null : env().OUTBOX_DRAIN_INTERVAL_MS),
  start() {
    const mailer = configuredMailer();
    const options = { database: db(), drainer: drainerId(), ...drainSettings(mailer) };
    return {
      pass: async () => ({ ...(await drainOutbox(options)) }),
      close: () => mailer.close(),
    };
  },
};
