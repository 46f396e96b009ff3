export { notFoundOperation as GET } from '@/lib/api/operations';
