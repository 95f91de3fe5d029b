/** Orders: what a paid checkout session becomes, and the payment events that make them. */
export { recordPaymentEvent, type EventOutcome, type EventResult, type CompletedOrder } from './complete';
export { sandboxPaymentAction } from './sandbox';
export {
  orderForSession,
  orderById,
  orderByNumber,
  listOrders,
  allOrders,
  siteIdByHandle,
  type StoredOrder,
  type OrderRow,
  type OrderLineRow,
} from './read';
export { orderNumberPrefix } from './numbers';
export { ordersCsvHeader, orderCsvRows, csvLine } from './export';
