import { notifications } from '@mantine/notifications';
import { ApiError } from '@/api/api-error';
import { notifyFailure } from './notify-failure';

jest.mock('@mantine/notifications', () => ({ notifications: { show: jest.fn(), hide: jest.fn() } }));
const shown = () => (notifications.show as jest.Mock).mock.calls.map(([n]) => n.message);

describe('a failed action on the jobs screens', () => {
  beforeEach(() => (notifications.show as jest.Mock).mockClear());

  it('names what the handler passed on without a message, and leaves what it showed alone', () => {
    notifyFailure(new ApiError(403, 'POST', '/api/job/J1', { code: 403, message: 'JOB.NOT_YOURS' }));
    notifyFailure(new ApiError(409, 'POST', '/api/jobs/J1/offers', { code: 409, message: 'JOB.NOT_ACCEPTING_OFFERS' }));
    notifyFailure(new ApiError(0, 'POST', '/api/job', null));
    notifyFailure(new ApiError(500, 'POST', '/api/job', null));
    notifyFailure(new Error('boom'));
    notifyFailure(new ApiError(422, 'POST', '/api/job', { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['X'] } }));
    notifyFailure(new ApiError(401, 'POST', '/api/job', { code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' }));
    expect(shown()).toEqual([
      "Only the job's customer can do this",
      'This job takes no more offers',
      'The server cannot be reached. Check your connection.',
      'Something went wrong. Please try again.',
      'Something went wrong. Please try again.',
    ]);
  });
});
