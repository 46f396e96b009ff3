export { listFeedbackStatesOperation as GET } from '@/lib/api/operations';
