/**
 * A table's schema, built the first time it is asked for and kept for the warm function.
 * Building a schema is zod work proportional to the table (the AReq's ~100 rows take tens of
 * milliseconds); at module scope every payment function's cold start would pay it for every
 * version and variant, although only a production step-up reads one, and only the version the
 * card range negotiated (docs/benchmarks.md "Cold start").
 */
export function builtOnFirstUse<K, S>(build: (key: K) => S): (key: K) => S {
  const built = new Map<K, S>();
  return (key) => {
    let schema = built.get(key);
    if (schema === undefined) {
      schema = build(key);
      built.set(key, schema);
    }
    return schema;
  };
}
