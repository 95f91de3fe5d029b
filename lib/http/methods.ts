/** The methods a path serves, in the order Allow lists them: HEAD right after GET. */
export function allowedMethods(served: readonly string[]): string[] {
  const allowed = [...served];
  if (allowed.includes('GET')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD');
  return allowed;
}
