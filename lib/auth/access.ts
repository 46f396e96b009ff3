import type { Role } from './roles';

/**
 * Who may open each page and route. The authorization test walks every page.tsx and route.ts
 * under app/ and fails when one is missing here, then checks over HTTP that each refuses a
 * signed-out caller and a caller below its role: a new route that forgets its guard fails it.
 * `public` routes check something else themselves (sign-in, the callback secret). `api-key`
 * routes (the read API) take no session at all: only a Bearer API key (lib/api/http.ts), so the
 * walk checks that every session, an admin's included, gets 401 from them. `metrics-token`
 * routes (/metrics) take only the METRICS_TOKEN bearer token, and are checked the same way.
 */
export type Access = Role | 'public' | 'api-key' | 'metrics-token';

export const PAGE_ACCESS: Record<string, Access> = {
  '/login': 'public',
  // The one-time link's token (in the fragment) is checked by its route when the form is sent.
  '/login/set-password': 'public',
  // Any signed-in session, also one that still owes its second factor (lib/auth/guards.ts).
  '/login/second-factor': 'analyst',
  '/account': 'analyst',
  '/admin/access-review': 'admin',
  '/': 'analyst',
  '/notifications': 'analyst',
  '/executions': 'analyst',
  '/executions/[id]': 'analyst',
  '/queues': 'manager',
  '/audit': 'manager',
  '/approvals': 'manager',
  '/trends': 'manager',
  '/qa': 'analyst',
  '/rings': 'analyst',
  '/rings/[id]': 'analyst',
  '/quality': 'manager',
  '/quality/reviews': 'manager',
  '/admin/users': 'admin',
  '/sync': 'admin',
  '/admin/settings': 'admin',
  '/admin/webhooks': 'admin',
  '/admin/webhooks/[id]': 'admin',
  '/admin/api-keys': 'admin',
  '/admin/reasons': 'admin',
};

export const ROUTE_ACCESS: Record<string, Access> = {
  '/api/auth/[...nextauth]': 'public',
  '/api/health': 'public',
  // Checks the one-time link's token itself (lib/auth/password-links.ts).
  '/api/account/password-link': 'public',
  '/api/admin/access-review/export': 'admin',
  // Checks its own secret and source-IP allowlist (lib/sync/callbacks.ts).
  '/api/idv/callback': 'public',
  '/api/executions/export': 'analyst',
  '/api/audit/export': 'manager',
  '/api/executions/[id]/report': 'analyst',
  '/api/executions/[id]/parts/[credentialId]/[classifier]': 'analyst',
  // The read API's document: public so integrators can point their tools at it.
  '/api/v1/openapi.json': 'public',
  '/api/v1/executions/changes': 'api-key',
  '/api/v1/cases/changes': 'api-key',
  '/api/v1/executions/[id]': 'api-key',
  '/api/v1/feedback': 'api-key',
  '/api/v1/trends': 'api-key',
  '/api/v1/[...path]': 'api-key',
  // Prometheus scrapes with METRICS_TOKEN; no session reaches it (lib/server/metrics-endpoint.ts).
  '/metrics': 'metrics-token',
};

/** Every server action, by `file#export`, with the role its defineAction() demands. */
export const ACTION_ACCESS: Record<string, Role> = {
  'lib/actions/users.ts#createUserAction': 'admin',
  'lib/actions/users.ts#changeRoleAction': 'admin',
  'lib/actions/users.ts#setActiveAction': 'admin',
  'lib/actions/users.ts#unlockSignInAction': 'admin',
  'lib/actions/executions.ts#refreshExecutionAction': 'analyst',
  'lib/actions/sync.ts#startSyncRunAction': 'admin',
  'lib/actions/sync.ts#retryFailedAction': 'admin',
  'lib/actions/review.ts#saveSearchAction': 'analyst',
  'lib/actions/review.ts#saveHiddenColumnsAction': 'analyst',
  'lib/actions/review.ts#revealPersonalDataAction': 'analyst',
  'lib/actions/review.ts#hidePersonalDataAction': 'analyst',
  'lib/actions/feedback.ts#submitFeedbackAction': 'analyst',
  'lib/actions/feedback.ts#retryFeedbackAction': 'analyst',
  'lib/actions/feedback.ts#getFeedbackPanelAction': 'analyst',
  'lib/actions/feedback.ts#previewBulkFeedbackAction': 'analyst',
  'lib/actions/feedback.ts#submitBulkFeedbackAction': 'analyst',
  'lib/actions/feedback.ts#getBatchProgressAction': 'analyst',
  'lib/actions/approvals.ts#approveFeedbackAction': 'manager',
  'lib/actions/approvals.ts#rejectFeedbackAction': 'manager',
  'lib/actions/settings.ts#setFourEyesAction': 'admin',
  'lib/actions/webhooks.ts#createWebhookEndpointAction': 'admin',
  'lib/actions/webhooks.ts#updateWebhookEndpointAction': 'admin',
  'lib/actions/webhooks.ts#setWebhookEndpointEnabledAction': 'admin',
  'lib/actions/webhooks.ts#rotateWebhookSecretAction': 'admin',
  'lib/actions/webhooks.ts#deleteWebhookEndpointAction': 'admin',
  'lib/actions/webhooks.ts#sendWebhookTestAction': 'admin',
  'lib/actions/webhooks.ts#replayWebhookDeliveryAction': 'admin',
  'lib/actions/webhooks.ts#replayWebhookRangeAction': 'admin',
  'lib/actions/cases.ts#claimNextCaseAction': 'analyst',
  'lib/actions/cases.ts#assignCaseAction': 'analyst',
  'lib/actions/cases.ts#bulkAssignCasesAction': 'analyst',
  'lib/actions/cases.ts#resolveCaseAction': 'analyst',
  'lib/actions/cases.ts#addNoteAction': 'analyst',
  'lib/actions/cases.ts#editNoteAction': 'analyst',
  'lib/actions/cases.ts#reopenCaseAction': 'manager',
  'lib/actions/cases.ts#createQueueAction': 'manager',
  'lib/actions/cases.ts#updateQueueAction': 'manager',
  'lib/actions/cases.ts#archiveQueueAction': 'manager',
  'lib/actions/cases.ts#reorderQueuesAction': 'manager',
  'lib/actions/cases.ts#getRematchProgressAction': 'manager',
  'lib/actions/qa.ts#saveQaSettingsAction': 'manager',
  'lib/actions/qa.ts#startQaSamplingAction': 'manager',
  'lib/actions/qa.ts#getQaSamplingProgressAction': 'manager',
  'lib/actions/qa.ts#claimNextQaReviewAction': 'analyst',
  'lib/actions/qa.ts#takeQaReviewAction': 'analyst',
  'lib/actions/qa.ts#decideQaReviewAction': 'analyst',
  'lib/actions/qa.ts#settleQaReviewAction': 'manager',
  'lib/actions/cases.ts#createCaseReasonAction': 'admin',
  'lib/actions/cases.ts#updateCaseReasonAction': 'admin',
  'lib/actions/cases.ts#setCaseReasonActiveAction': 'admin',
  'lib/actions/cases.ts#reorderCaseReasonsAction': 'admin',
  'lib/actions/api-keys.ts#createApiKeyAction': 'admin',
  'lib/actions/api-keys.ts#revokeApiKeyAction': 'admin',
  'lib/actions/rings.ts#labelRingAction': 'analyst',
  'lib/actions/rings.ts#openRingCasesAction': 'analyst',
  'lib/actions/rings.ts#dismissRingAction': 'analyst',
  'lib/actions/rings.ts#expandRingAttributeAction': 'analyst',
  'lib/actions/users.ts#resetPasswordAction': 'admin',
  'lib/actions/access-review.ts#markAccessReviewedAction': 'admin',
  'lib/actions/account.ts#startTotpEnrolmentAction': 'analyst',
  'lib/actions/account.ts#confirmTotpEnrolmentAction': 'analyst',
  'lib/actions/account.ts#passkeyRegistrationOptionsAction': 'analyst',
  'lib/actions/account.ts#registerPasskeyAction': 'analyst',
  'lib/actions/account.ts#proveCodeAction': 'analyst',
  'lib/actions/account.ts#passkeyAuthenticationOptionsAction': 'analyst',
  'lib/actions/account.ts#provePasskeyAction': 'analyst',
  'lib/actions/account.ts#removeFactorAction': 'analyst',
  'lib/actions/account.ts#replaceRecoveryCodesAction': 'analyst',
  'lib/actions/account.ts#changePasswordAction': 'analyst',
  'lib/actions/account.ts#signOutSessionAction': 'analyst',
  'lib/actions/account.ts#signOutOtherSessionsAction': 'analyst',
  'lib/actions/account.ts#confirmStepUpAction': 'analyst',
  'lib/actions/notifications.ts#getUnreadCountAction': 'analyst',
  'lib/actions/notifications.ts#markNotificationsReadAction': 'analyst',
  'lib/actions/notifications.ts#saveNotificationPreferencesAction': 'analyst',
  'lib/actions/views.ts#saveViewAction': 'analyst',
  'lib/actions/views.ts#deleteViewAction': 'analyst',
  'lib/actions/account.ts#saveTimeZoneAction': 'analyst',
  'lib/actions/audit.ts#verifyAuditNowAction': 'manager',
  'lib/actions/audit.ts#getAuditVerifyProgressAction': 'manager',
};

export interface NavItem {
  href: string;
  label: string;
  role: Role;
  icon:
    | 'home'
    | 'list'
    | 'chart'
    | 'audit'
    | 'sync'
    | 'users'
    | 'settings'
    | 'check'
    | 'webhook'
    | 'inbox'
    | 'key'
    | 'scan'
    | 'gauge'
    | 'network';
}

export const NAV: NavItem[] = [
  { href: '/', label: 'My work', role: 'analyst', icon: 'home' },
  { href: '/executions', label: 'Executions', role: 'analyst', icon: 'list' },
  { href: '/queues', label: 'Queues', role: 'manager', icon: 'inbox' },
  { href: '/rings', label: 'Rings', role: 'analyst', icon: 'network' },
  { href: '/qa', label: 'QA reviews', role: 'analyst', icon: 'scan' },
  { href: '/quality', label: 'Quality', role: 'manager', icon: 'gauge' },
  { href: '/approvals', label: 'Approvals', role: 'manager', icon: 'check' },
  { href: '/trends', label: 'Trends', role: 'manager', icon: 'chart' },
  { href: '/audit', label: 'Audit log', role: 'manager', icon: 'audit' },
  { href: '/admin/users', label: 'Users', role: 'admin', icon: 'users' },
  { href: '/admin/access-review', label: 'Access review', role: 'admin', icon: 'check' },
  { href: '/sync', label: 'Sync', role: 'admin', icon: 'sync' },
  { href: '/admin/webhooks', label: 'Webhooks', role: 'admin', icon: 'webhook' },
  { href: '/admin/reasons', label: 'Case reasons', role: 'admin', icon: 'check' },
  { href: '/admin/settings', label: 'Settings', role: 'admin', icon: 'settings' },
  { href: '/admin/api-keys', label: 'API keys', role: 'admin', icon: 'key' },
];
