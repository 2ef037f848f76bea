import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithMantine } from '../../../../jest/render';
import { changeI18nLanguage } from '@/i18n/i18n';
import { type JobFormValues, emptyJobForm } from '../job-form';
import { JobForm } from './JobForm';

afterEach(() => changeI18nLanguage('eng'));

const versions = () => screen.getAllByTestId('job-form-version');
const field = (i: number, testId: string) => within(versions()[i]).getByTestId(testId) as HTMLInputElement;
const errorOf = (input: HTMLElement) =>
  input.getAttribute('aria-invalid') === 'true'
    ? (document.getElementById(
        input
          .getAttribute('aria-describedby')
          ?.split(' ')
          .find((id) => id.includes('error')) ?? '',
      )?.textContent ?? 'invalid')
    : null;

function renderForm(initialValues: JobFormValues = emptyJobForm('eng')) {
  const onSubmit = jest.fn(async () => undefined);
  renderWithMantine(<JobForm initialValues={initialValues} submitLabel="Post" onSubmit={onSubmit} onCancel={() => undefined} />);
  return onSubmit;
}

describe('the job form', () => {
  it('starts with one default version holding the spec defaults, and shows an error only once the field is dirty', () => {
    renderForm();
    expect(field(0, 'job-form-title').value).toBe('Default job title');
    expect(field(0, 'job-form-description').value).toBe('Default short job description');
    expect(within(versions()[0]).getByTestId('job-form-default')).toBeChecked();

    fireEvent.change(field(0, 'job-form-title'), { target: { value: 'Fix' } });
    expect(screen.getByText('The field should contain at least 6 characters')).toBeInTheDocument();
    fireEvent.change(field(0, 'job-form-title'), { target: { value: '' } });
    expect(screen.getByText('The field is required')).toBeInTheDocument();
    fireEvent.change(field(0, 'job-form-title'), { target: { value: 'Fix the roof' } });
    expect(screen.queryByText('The field is required')).toBeNull();
    expect(field(0, 'job-form-title')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps an invalid untouched field quiet until it is touched (blurred) or a submit is tried, in Polish too', async () => {
    changeI18nLanguage('pol');
    const onSubmit = renderForm({ deadline: '', versions: [{ lang: 'eng', title: 'abc', description: 'too short', isDefault: true }] });
    expect(screen.queryByText('Pole powinno zawierać minimum 6 znaków')).toBeNull();
    fireEvent.blur(field(0, 'job-form-title'));
    expect(screen.getByText('Pole powinno zawierać minimum 6 znaków')).toBeInTheDocument();
    // The description was neither changed nor touched.
    expect(screen.queryByText('Pole powinno zawierać minimum 20 znaków')).toBeNull();

    await act(async () => fireEvent.click(screen.getByTestId('job-form-save')));
    expect(screen.getByText('Pole powinno zawierać minimum 20 znaków')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(errorOf(field(0, 'job-form-description'))).toBe('Pole powinno zawierać minimum 20 znaków');
  });

  it('adds a version with the defaults and the next free language, shows uniqueTranslation with its value and count, keeps one default', async () => {
    const onSubmit = renderForm();
    fireEvent.click(screen.getByTestId('job-form-add-version'));
    expect(versions()).toHaveLength(2);
    expect(field(1, 'job-form-lang').value).toBe('Polski (pol)');
    expect(field(1, 'job-form-title').value).toBe('Default job title');
    expect(within(versions()[1]).getByTestId('job-form-default')).not.toBeChecked();

    // Picking English again: the language occurs twice.
    fireEvent.click(field(1, 'job-form-lang'));
    fireEvent.click(await screen.findByRole('option', { name: 'English (eng)' }));
    expect(screen.getByTestId('job-form-unique-translation')).toHaveTextContent('Each language may occur only once: English (eng) occurs 2 times');
    await act(async () => fireEvent.click(screen.getByTestId('job-form-save')));
    expect(onSubmit).not.toHaveBeenCalled();

    // The second becomes the default; removing it hands the default back to the first.
    fireEvent.click(within(versions()[1]).getByTestId('job-form-default'));
    expect(within(versions()[0]).getByTestId('job-form-default')).not.toBeChecked();
    fireEvent.click(within(versions()[1]).getByTestId('job-form-remove-version'));
    expect(versions()).toHaveLength(1);
    expect(within(versions()[0]).getByTestId('job-form-default')).toBeChecked();
    expect(screen.queryByTestId('job-form-unique-translation')).toBeNull();
    expect(within(versions()[0]).getByTestId('job-form-remove-version')).toBeDisabled();

    await act(async () => fireEvent.click(screen.getByTestId('job-form-save')));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith(
      { deadline: '', versions: [{ lang: 'eng', title: 'Default job title', description: 'Default short job description', isDefault: true }] },
      {},
    );
  });
});
