import { useMutation } from '@tanstack/react-query';
import { addToWatchLater, logWatchLaterError } from '@/api/lists/list-actions';

export const useAddToWatchLater = () => useMutation({ mutationFn: addToWatchLater, onError: logWatchLaterError });
