import type { en } from './en';

export type Dictionary = Record<keyof typeof en, string>;
