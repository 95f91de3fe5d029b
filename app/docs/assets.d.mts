export function versionedName(file: string, version: string): string;
export function copyDocsAssets(): string[];
