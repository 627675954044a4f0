/** A stable colour per tag, so a tag looks the same on every page. */
export function tagColor(tag: string | undefined): string {
  if (!tag) return "#475569";
  let h = 0;
  for (const ch of tag) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `hsl(${h % 360} 70% 40%)`;
}
