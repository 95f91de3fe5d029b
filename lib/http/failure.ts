/** An answer decided before the handler runs (a 401): the route wrapper sends it as it is. */
export class HttpFailure extends Error {
  constructor(readonly response: Response) {
    super('http failure');
  }
}
