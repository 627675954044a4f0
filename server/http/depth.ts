/**
 * How deep values may nest below a request's fields: far more than any field needs (metadata is
 * flat, a polygon 3 deep), and shallow enough that no recursion over a value (the NUL check,
 * validation, JSON.stringify) can overflow the stack. JSON.parse itself copes with any depth.
 */
export const MAX_DEPTH = 32;

/**
 * The top-level field of `input` holding a value nested deeper than `max` levels (a field's own
 * object or array is level 1), or null. Iterative: any depth is safe.
 */
export function tooDeep(input: unknown, max = MAX_DEPTH): string | null {
  if (!input || typeof input !== "object") return null;
  const stack: [unknown, number, string][] = Object.entries(input).map(([k, v]) => [v, 1, k]);
  while (stack.length) {
    const [value, depth, field] = stack.pop()!;
    if (!value || typeof value !== "object") continue;
    if (depth > max) return field;
    for (const child of Object.values(value)) stack.push([child, depth + 1, field]);
  }
  return null;
}
