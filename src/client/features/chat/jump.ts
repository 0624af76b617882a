import { createContext, useContext } from 'react';

/**
 * How a reply's quote reaches the message it answers: the message list, virtualized, scrolls to
 * that row (loading older pages until it is there); a row not rendered has no element to find.
 */
export const JumpToMessage = createContext<((seq: number) => void) | null>(null);

export const useJumpToMessage = () => useContext(JumpToMessage);
