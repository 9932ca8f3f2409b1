// frontend/back-office -> the Organisations page (decisions.md §11): every organisation by name with its
// sandbox budget (used of total), and in each row a field `Sandbox budget` with `Save`, which sets the
// total as `ops set-budget` does. The budget spans both environments, so both show the same.
import { useState } from 'preact/hooks';
import { call } from '../../../app-kit/api';
import {
  EmptyState,
  errorText,
  Loading,
  Notice,
  TableRegion,
  Title,
  useLoaded,
} from '../../../app-kit/components';
import { LoadMore, readPages } from '../load-more';
import type { EnvironmentJson, OrganisationWithBudgetJson } from '../types';

type Budget = OrganisationWithBudgetJson['sandbox_budget'];

const BudgetForm = ({
  environment,
  organisation,
  onSaved,
}: {
  environment: EnvironmentJson;
  organisation: OrganisationWithBudgetJson;
  onSaved: (budget: Budget) => void;
}) => {
  const [total, setTotal] = useState(String(organisation.sandbox_budget.total));
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = `budget-${organisation.id}`;
  return (
    <form
      class="inline-form"
      aria-label={`Sandbox budget of ${organisation.name}`}
      onSubmit={async (event) => {
        event.preventDefault();
        setStatus(null);
        setError(null);
        if (!/^[0-9]{1,7}$/.test(total.trim())) {
          setError('Enter the budget as a whole number of contracts, such as 20.');
          return;
        }
        setBusy(true);
        try {
          const saved = await call<OrganisationWithBudgetJson>(
            'PUT',
            `/api/${environment}/organisations/${organisation.id}/budget`,
            { total: Number(total.trim()) },
          );
          onSaved(saved.sandbox_budget);
          setStatus(`Saved: ${saved.sandbox_budget.total} sandbox contracts in all.`);
        } catch (failed) {
          setError(errorText(failed));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label for={field}>Sandbox budget</label>{' '}
      <input
        id={field}
        inputMode="numeric"
        size={7}
        value={total}
        onInput={(event) => setTotal(event.currentTarget.value)}
      />{' '}
      <button type="submit" disabled={busy}>
        Save
      </button>
      <Notice error={error} status={status} />
    </form>
  );
};

export const OrganisationsPage = ({ environment }: { environment: EnvironmentJson }) => {
  const [pages, setPages] = useState(1);
  const list = useLoaded(
    () => readPages<OrganisationWithBudgetJson>(`/api/${environment}/organisations`, pages),
    environment,
  );
  // Budgets saved on this page, shown at once without reading the list again.
  const [saved, setSaved] = useState<Record<string, Budget>>({});
  return (
    <>
      <Title>Organisations</Title>
      <p class="hint">
        Every organisation by name, with its sandbox budget: the processed contracts it may send to the
        sandbox, across its integrations.
      </p>
      <Notice error={list.error} />
      {list.value === null ? (
        !list.error && <Loading what="the organisations" />
      ) : list.value.rows.length === 0 ? (
        <EmptyState title="No organisation exists yet.">
          <p>An organisation appears here once a person creates one in the developer portal.</p>
        </EmptyState>
      ) : (
        <>
          <TableRegion label="Organisations">
            <table>
              <caption>Organisations by name</caption>
              <thead>
                <tr>
                  <th scope="col">Organisation</th>
                  <th scope="col">Id</th>
                  <th scope="col">Used of total</th>
                  <th scope="col">Change the total</th>
                </tr>
              </thead>
              <tbody>
                {list.value.rows.map((organisation) => {
                  const budget = saved[organisation.id] ?? organisation.sandbox_budget;
                  return (
                    <tr key={organisation.id} data-organisation={organisation.id}>
                      <th scope="row">{organisation.name}</th>
                      <td>
                        <code>{organisation.id}</code>
                      </td>
                      <td data-testid="budget-used">
                        {budget.used} of {budget.total} used
                        {budget.remaining === 0 && <span class="hint"> (none left)</span>}
                      </td>
                      <td>
                        <BudgetForm
                          environment={environment}
                          organisation={organisation}
                          onSaved={(next) => setSaved((all) => ({ ...all, [organisation.id]: next }))}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
          {list.value.hasMore && (
            <LoadMore
              onClick={() => {
                setPages((count) => count + 1);
                list.reload();
              }}
            />
          )}
        </>
      )}
    </>
  );
};
