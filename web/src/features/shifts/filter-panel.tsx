import { SlidersHorizontal } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Sheet } from '../../components/ui/sheet';
import { FilterFields } from './filter-fields';
import { defaultFilters, isDefault, type ShiftFilters } from './shift-filters';

/** Large screens: the filters beside the list, applied as they change. */
export function FilterPanel({
  filters,
  onChange,
}: {
  filters: ShiftFilters;
  onChange(filters: ShiftFilters): void;
}) {
  return (
    <Card className="hidden lg:block">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle as="h2">Filters</CardTitle>
        <Button
          size="sm"
          variant="ghost"
          disabled={isDefault(filters)}
          onClick={() => onChange(defaultFilters)}
        >
          Clear
        </Button>
      </CardHeader>
      <CardContent>
        <FilterFields filters={filters} onChange={onChange} />
      </CardContent>
    </Card>
  );
}

/** Small screens: a slide-out panel whose choices apply on 'Apply Filters'. */
export function FilterSheetButton({
  filters,
  onChange,
}: {
  filters: ShiftFilters;
  onChange(filters: ShiftFilters): void;
}) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(filters);
  return (
    <>
      <Button
        variant="outline"
        className="lg:hidden"
        onClick={() => {
          setDraft(filters);
          setOpen(true);
        }}
      >
        <SlidersHorizontal aria-hidden /> Filters
      </Button>
      <Sheet open={open} onOpenChange={setOpen} title="Filters & Locations">
        <FilterFields filters={draft} onChange={setDraft} />
        <div className="mt-2 grid gap-2">
          <Button
            onClick={() => {
              onChange(draft);
              setOpen(false);
            }}
          >
            Apply Filters
          </Button>
          <Button variant="outline" onClick={() => setDraft(defaultFilters)}>
            Clear
          </Button>
        </div>
      </Sheet>
    </>
  );
}
