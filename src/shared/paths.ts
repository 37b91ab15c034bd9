/** A path pattern (of a page or an endpoint) with its `:name` segments filled in, each encoded as one segment. */
export function fillPath(pattern: string, params: Record<string, string> = {}): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${pattern} needs the parameter ${name}.`);
    return encodeURIComponent(value);
  });
}
