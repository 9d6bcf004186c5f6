import { HiddenTopicsPage } from '@/features/hidden-topics/components/hidden-topics-page';
import '@/features/hidden-topics/hidden-topics.css';

// The settings page of hidden topics, for guests and members (loaded on demand, see router.tsx).
export const HiddenTopicsRoute = () => <HiddenTopicsPage />;
