export { listCaseChangesOperation as GET } from '@/lib/api/operations';
