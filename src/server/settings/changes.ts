import { topic } from '../db/change-feed';

/** The owner saved the settings, on any server: the caches drop them, and every open page hears the shop's details. */
export type SettingsChange = { type: 'saved' };

export const settingsTopic = topic<SettingsChange>('settings');
