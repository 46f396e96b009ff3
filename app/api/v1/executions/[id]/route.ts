export { getExecutionSummaryOperation as GET } from '@/lib/api/operations';
