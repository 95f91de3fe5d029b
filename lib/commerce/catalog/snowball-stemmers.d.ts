// The package ships no types: the two functions it exports (see its README).
declare module 'snowball-stemmers' {
  export type Stemmer = { stem(word: string): string };
  export function newStemmer(algorithm: string): Stemmer;
  export function algorithms(): string[];
}
