/**
 * The letters before a Site's order numbers: the initials of its name ("Nordlys Home &
 * Goods" → NHG), else of its handle, at most four, never empty. Fixed into each order when
 * it is made, so renaming the shop later changes no number already given out.
 */
export function orderNumberPrefix(name: string, handle: string): string {
  const initials = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
      .split(/[\s-]+/)
      .filter(Boolean)
      .map((word) => word[0]!)
      .join('')
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase()
      .slice(0, 4);
  const fromName = initials(name);
  if (fromName.length >= 2) return fromName;
  const fromHandle = initials(handle);
  return fromHandle.length >= 2
    ? fromHandle
    : handle
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 3)
        .toUpperCase() || 'ORD';
}
