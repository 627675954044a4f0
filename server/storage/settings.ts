/* Settings: stored texts by key. */

export interface SettingStore {
  /** A setting's stored text, or null when it was never set. */
  get(key: string): Promise<string | null>;
  /** Sets several settings in one change. */
  set(values: Record<string, string>, at: Date): Promise<void>;
}
