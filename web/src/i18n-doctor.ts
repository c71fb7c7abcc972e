/** Messages of the doctor screen (`GET /api/doctor`, `POST /api/doctor/probe`; docs/APP-SERVER.md §15). Spread into both tables in i18n.ts. */
export const doctorEn = {
  doctor: 'Doctor',
  doctorIntro: 'What `zcode-hub doctor` reports for this computer: each check and, for a problem, what to do.',
  doctorFix: 'Fix: {0}',
  doctorLoading: 'Checking…',
  doctorProbeTitle: 'Probe the agent',
  doctorProbeIntro:
    'Walks a short, harmless conversation with a separate copy of the agent in a scratch folder (your sessions are not touched) and checks every answer against what the hub expects.',
  doctorProbeRun: 'Run the probe',
  doctorProbeRunning: 'Probing… (a real CLI takes up to a few minutes)',
  doctorProbeNoPrompt: 'Skip the prompts (no model is asked)',
  doctorProbePass: 'Pass: the hub works with this agent ({0} ok)',
  doctorProbeFail: 'Fail: {0} differ, {1} missing — download the report and attach it to a bug report',
  doctorProbeFailed: 'The probe could not start: {0}',
  doctorProbeDownload: 'Download the report (JSON)',
  doctorProbeBackend: 'Probed: {0}',
  doctorProbeSim: 'the bundled simulator',
};

export const doctorZh: Record<keyof typeof doctorEn, string> = {
  doctor: '诊断',
  doctorIntro: '`zcode-hub doctor` 对这台电脑的报告：每项检查，以及出问题时的处理方法。',
  doctorFix: '处理：{0}',
  doctorLoading: '检查中…',
  doctorProbeTitle: '探测智能体',
  doctorProbeIntro: '在临时文件夹中与一个单独的智能体副本进行一段简短、无害的对话（不会触及你的会话），并按 hub 的预期检查每个回答。',
  doctorProbeRun: '运行探测',
  doctorProbeRunning: '探测中…（真实 CLI 可能需要几分钟）',
  doctorProbeNoPrompt: '跳过提示（不询问模型）',
  doctorProbePass: '通过：hub 可与此智能体协作（{0} 项正常）',
  doctorProbeFail: '失败：{0} 项不同，{1} 项缺失 — 请下载报告并附在问题报告中',
  doctorProbeFailed: '探测无法启动：{0}',
  doctorProbeDownload: '下载报告（JSON）',
  doctorProbeBackend: '已探测：{0}',
  doctorProbeSim: '内置模拟器',
};
