import { easternClock, TIME_ZONE } from '@shiftcover/domain';
import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';

/** The live system clock in Eastern time, the zone every shift time is read in. */
export function EasternClockCard() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  const clock = easternClock(now);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Clock className="size-4 text-teal-700" aria-hidden />
          System Clock
        </CardTitle>
        <CardDescription>US Eastern time ({TIME_ZONE}), as shifts are scheduled.</CardDescription>
      </CardHeader>
      <CardContent>
        <div role="timer" aria-label="Eastern time" className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span className="font-mono text-3xl font-semibold tabular-nums text-slate-900">{clock.time}</span>
          <Badge variant="outline">{clock.zone}</Badge>
        </div>
        <p className="mt-1 text-sm text-slate-600">{clock.date}</p>
      </CardContent>
    </Card>
  );
}
