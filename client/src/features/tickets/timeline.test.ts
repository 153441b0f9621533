import { describe, expect, it } from 'vitest';
import { describeHistory } from './timeline';

describe('describeHistory', () => {
  it.each([
    [{ type: 'created', from: null, to: 'open' }, 'Ticket created'],
    [{ type: 'status', from: 'open', to: 'in_progress' }, 'Status changed from Open to In Progress'],
    [{ type: 'status', from: 'in_progress', to: 'resolved' }, 'Status changed from In Progress to Resolved'],
    [{ type: 'priority', from: 'medium', to: 'urgent' }, 'Priority changed from Medium to Urgent'],
    [{ type: 'category', from: 'general', to: 'billing' }, 'Category changed from General to Billing'],
    [{ type: 'edited', from: null, to: 'title' }, 'Title edited'],
    [{ type: 'edited', from: null, to: 'title,description' }, 'Title and description edited'],
    [{ type: 'edited', from: null, to: null }, 'Ticket edited'],
    [{ type: 'resolution', from: null, to: 'Replaced the toner' }, 'Resolution notes updated'],
    [{ type: 'resolution', from: 'Replaced the toner', to: null }, 'Resolution notes cleared'],
    [{ type: 'assigned', from: null, to: 'Agent Smith' }, 'Assigned to Agent Smith'],
    [{ type: 'assigned', from: 'Agent Smith', to: null }, 'Unassigned from Agent Smith'],
    [{ type: 'comment', from: null, to: '12' }, 'Comment added'],
    [{ type: 'tags', from: null, to: 'printer,vip' }, 'Tags set to printer, vip'],
    [{ type: 'tags', from: 'vip', to: null }, 'Tags cleared'],
    [{ type: 'merged', from: null, to: '42' }, 'Merged into #42'],
  ] as const)('%o reads "%s"', (entry, text) => {
    expect(describeHistory(entry)).toBe(text);
  });
});
