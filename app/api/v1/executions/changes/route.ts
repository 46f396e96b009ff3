export { listExecutionChangesOperation as GET } from '@/lib/api/operations';
