import { Center, Loader, Progress } from '@mantine/core';
import { useEffect, useState } from 'react';

/** Covers the page until the current user is checked. */
export function FullPageLoader() {
  return (
    <Center h="100vh" data-testid="full-page-loader">
      <Loader size="lg" />
    </Center>
  );
}

/** A spinner for a part of the page (lazy pages, loading sections). */
export function Spinner({ size = 'md' }: { size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' }) {
  return (
    <Center p="xl" data-testid="spinner">
      <Loader size={size} />
    </Center>
  );
}

/** Creeps towards 90 % while work is under way (it cannot know the real progress); 100 % when done. */
export function CreepingProgress({ done = false, stepMs = 300 }: { done?: boolean; stepMs?: number }) {
  const [value, setValue] = useState(done ? 100 : 5);
  useEffect(() => {
    if (done) {
      setValue(100);
      return;
    }
    const timer = setInterval(() => setValue((v) => nextCreep(v)), stepMs);
    return () => clearInterval(timer);
  }, [done, stepMs]);
  return <Progress value={value} size="sm" transitionDuration={stepMs} data-testid="creeping-progress" data-value={value} />;
}

/** Each step covers a tenth of the remaining way to 90 %, so it never gets there on its own. */
export const nextCreep = (value: number): number => Math.min(90, value + Math.max(0.5, (90 - value) / 10));

/** A thin indeterminate line, e.g. under a toolbar. */
export function LineLoader() {
  return <Progress value={100} size={3} animated striped radius={0} data-testid="line-loader" />;
}
