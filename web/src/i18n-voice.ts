/** Messages of voice input and read-aloud, kept apart from i18n.ts. Spread into both tables there. */
export const voiceEn = {
  voiceInput: 'Voice input',
  voiceStop: 'Stop voice input',
  voiceListening: 'Listening…',
  voiceRefused: 'Microphone access was refused. Allow it in the browser’s site settings.',
  voiceNetwork: 'Voice input needs the browser’s speech service, which cannot be reached.',
  voiceFailed: 'Voice input stopped ({0}).',
  readAloud: 'Read aloud',
  stopReading: 'Stop reading',
};

export const voiceZh: Record<keyof typeof voiceEn, string> = {
  voiceInput: '语音输入',
  voiceStop: '停止语音输入',
  voiceListening: '正在听…',
  voiceRefused: '麦克风权限被拒绝。请在浏览器的网站设置中允许。',
  voiceNetwork: '语音输入需要浏览器的语音服务，但目前无法连接。',
  voiceFailed: '语音输入已停止（{0}）。',
  readAloud: '朗读',
  stopReading: '停止朗读',
};
