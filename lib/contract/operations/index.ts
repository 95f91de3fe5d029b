import type { Operation } from '../operation';
import { readOperations } from './reads';
import { signupOperations } from './signups';
import { analyticsOperations } from './analytics';
import { checkoutOperations } from './checkout';

/** Every operation of /site/v1, in contract order. Each area adds its list here. */
export const operations: Operation[] = [...readOperations, ...signupOperations, ...analyticsOperations, ...checkoutOperations];
