import { PRIORITIES, REPORT_INTERVALS } from '@helpdesk/protocol';
import { Grid, Paper, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { staffDirectoryQuery } from '../../api/users';
import { CATEGORY_OPTIONS } from '../../components/CategoryChip';
import { assigneeOptions, ASSIGNEE_ANYONE } from '../../components/TicketFilters';
import { labelledOptions, labelOf } from '../../lib/text';
import { timeZones } from '../../lib/timeZones';
import { dailyAllowed, effectiveInterval, RANGE_PRESETS, readAssignee, type RangeChoice, type ReportFilters } from './reportFilters';

const RANGE_OPTIONS = [...RANGE_PRESETS.map(({ value, label }) => ({ value, label })), { value: 'custom', label: 'Custom range' }];
const PRIORITY_OPTIONS = labelledOptions(PRIORITIES);
const TIME_ZONES = timeZones();
/** The boxes that narrow the tickets counted; cleared, they do not. */
const ENUM_FILTERS = [
  { field: 'priority', label: 'Priority', placeholder: 'All priorities', data: PRIORITY_OPTIONS },
  { field: 'category', label: 'Category', placeholder: 'All categories', data: CATEGORY_OPTIONS },
] as const;

interface ReportFilterBarProps {
  filters: ReportFilters;
  onChange: (change: Partial<ReportFilters>) => void;
  meId: number;
}

/** Range, interval, assignee, priority, category and time zone above the report (docs/product.md#reports). */
export function ReportFilterBar({ filters, onChange, meId }: ReportFilterBarProps) {
  const staff = useQuery(staffDirectoryQuery).data?.staff ?? [];
  const daily = dailyAllowed(filters.from, filters.to);
  // A disabled Day says why in its own words, so the box keeps the row's height.
  const intervals = REPORT_INTERVALS.map((value) =>
    value === 'day' && !daily ? { value, label: 'Day (up to 92 days)', disabled: true } : { value, label: labelOf(value) },
  );
  // A browser's date box reports an empty value while a day is half typed: nothing is applied until it is whole.
  const day = (end: 'from' | 'to') => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    if (value) onChange({ range: 'custom', from: filters.from, to: filters.to, [end]: value });
  };

  return (
    <Paper withBorder radius="md" p="md" component="form" aria-label="Report filters" onSubmit={(event) => event.preventDefault()}>
      {/* On a phone the boxes pair up where their texts are short (interval, dates, priority and
          category) and take the whole row where names run long (agents, time zones). */}
      <Grid gutter="sm">
        <Grid.Col span={{ base: 7, md: 3 }}>
          <Select
            label="Date range"
            data={RANGE_OPTIONS}
            value={filters.range}
            allowDeselect={false}
            onChange={(value) => value && onChange({ range: value as RangeChoice })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 5, md: 3 }}>
          <Select
            label="Interval"
            data={intervals}
            value={effectiveInterval(filters)}
            allowDeselect={false}
            // The dropdown may be wider than a phone's narrow box, so 'Day (up to 92 days)' fits.
            comboboxProps={{ styles: { dropdown: { minWidth: 180 } } }}
            onChange={(value) => value && onChange({ interval: value as ReportFilters['interval'] })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 3 }}>
          <TextInput label="From" type="date" value={filters.from} max={filters.to} onChange={day('from')} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 3 }}>
          <TextInput label="To" type="date" value={filters.to} min={filters.from} onChange={day('to')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Select
            label="Assignee"
            data={assigneeOptions({ staff, meId })}
            value={filters.assignee === undefined ? ASSIGNEE_ANYONE : String(filters.assignee)}
            allowDeselect={false}
            searchable
            onChange={(value) => onChange({ assignee: readAssignee(value) })}
          />
        </Grid.Col>
        {ENUM_FILTERS.map(({ field, label, placeholder, data }) => (
          <Grid.Col key={field} span={{ base: 6, md: 3 }}>
            <Select
              label={label}
              placeholder={placeholder}
              data={data}
              value={filters[field] ?? null}
              clearable
              onChange={(value) => onChange({ [field]: value ?? undefined })}
            />
          </Grid.Col>
        ))}
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Select
            label="Time zone"
            data={TIME_ZONES}
            value={filters.tz}
            searchable
            allowDeselect={false}
            limit={50}
            onChange={(value) => value && onChange({ tz: value })}
          />
        </Grid.Col>
      </Grid>
    </Paper>
  );
}
