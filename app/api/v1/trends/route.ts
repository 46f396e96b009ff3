export { getTrendsOperation as GET } from '@/lib/api/operations';
