export { parseSettingsDocument, lineMap, MAX_SETTINGS_BYTES, type SettingsIssue, type ParsedSettings } from './document';
export {
  exportSettings,
  settingsDocumentText,
  validateSettings,
  importSettings,
  createSite,
  type SettingsPlan,
  type SettingsResult,
} from './transfer';
export { readShopTexts, readShopPage } from './texts';
