export * from './sites';
export * from './catalog';
export * from './signups';
export * from './checkout';
export * from './ops';
export * from './orders';
