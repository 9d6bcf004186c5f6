/** A body that must be empty: with the global whitelist, any field in it answers 400. */
export class EmptyBodyDto {}
