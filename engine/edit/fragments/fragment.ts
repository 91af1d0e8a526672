/**
 * A fragment as written in a plan step (`{"fragment": {kind, properties,
 * children}}`): the one type both the validator and the serializer read, in
 * its own file so neither imports the other for it.
 *
 * @module
 */

/** A fragment as written in a plan step. */
export interface Fragment {
  kind: string;
  properties?: Record<string, unknown>;
  children?: Fragment[];
}
