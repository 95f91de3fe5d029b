import 'server-only';
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * The HTML of a shop page's Markdown (its settings: docs/site-settings.md). The text is the
 * shop owner's, but it is stored data all the same: only what Markdown makes is kept (no raw
 * HTML, scripts, styles, images or event handlers), links only to http(s), mail and the shop's
 * own paths. The page's title is its one h1, so the text's headings start at h2.
 */
export function markdownHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'h2',
      'h3',
      'h4',
      'ul',
      'ol',
      'li',
      'strong',
      'em',
      'a',
      'blockquote',
      'code',
      'hr',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'del',
    ],
    allowedAttributes: { a: ['href'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowProtocolRelative: false,
    transformTags: { h1: 'h2', h5: 'h4', h6: 'h4' },
    disallowedTagsMode: 'discard',
  });
}
