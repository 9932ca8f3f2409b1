// frontend/back-office -> the Staff page (decisions.md §11), for admins: the operator's staff with their
// names and roles (a review page names the lawyer who published it); adding a person (or changing a member's roles) and removing one, each confirmed in a dialog and
// each in the audit log, as `ops staff-add` and `ops staff-remove` do. Staff span both environments.
import { useState } from 'preact/hooks';
import { call, get } from '../../../app-kit/api';
import {
  ConfirmButton,
  EmptyState,
  errorText,
  Loading,
  Notice,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import type { RoleJson, StaffMemberJson } from '../types';

/** Each role and what it lets a person do; a record, so a role the core adds must be described here. */
const ROLE_NAMES: Readonly<Record<RoleJson, [string, string]>> = {
  lawyer: ['Lawyer', 'reviews contracts and publishes reviews'],
  operator: ['Operator', 'accepts sign-ups, withdraws publications, sets budgets, reads every contract'],
  admin: ['Admin', 'manages the staff and their roles'],
};
const ROLES = Object.keys(ROLE_NAMES) as RoleJson[];

const rolesText = (roles: readonly RoleJson[]): string => roles.map((role) => ROLE_NAMES[role][0]).join(', ');

const staffPath = (email: string): string => `/api/staff/${encodeURIComponent(email)}`;

const AddForm = ({ onDone }: { onDone: (status: string | null, error: string | null) => void }) => {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<RoleJson[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const ready = /^[^\s@]+@[^\s@]+$/.test(email.trim()) && roles.length > 0;
  return (
    <form aria-labelledby="add-staff-heading" onSubmit={(event) => event.preventDefault()}>
      <h2 id="add-staff-heading">Add a staff member</h2>
      <p class="hint">
        Adding someone who is staff already gives them exactly the roles ticked (and the name, if one is
        given). They sign in with the email's account.
      </p>
      <label for="staff-email">Email</label>
      <input
        id="staff-email"
        type="email"
        autoComplete="off"
        value={email}
        onInput={(event) => setEmail(event.currentTarget.value)}
      />
      <label for="staff-name">Name</label>
      <p class="hint" id="staff-name-hint">
        As the review pages they publish show it: “Reviewed by …”.
      </p>
      <input
        id="staff-name"
        type="text"
        autoComplete="off"
        maxLength={100}
        aria-describedby="staff-name-hint"
        value={name}
        onInput={(event) => setName(event.currentTarget.value)}
      />
      <fieldset>
        <legend>Roles</legend>
        {ROLES.map((role) => (
          <label class="checkbox" key={role}>
            <input
              type="checkbox"
              checked={roles.includes(role)}
              onChange={(event) =>
                setRoles(
                  event.currentTarget.checked
                    ? ROLES.filter((r) => r === role || roles.includes(r))
                    : roles.filter((r) => r !== role),
                )
              }
            />{' '}
            {ROLE_NAMES[role][0]} <span class="hint">({ROLE_NAMES[role][1]})</span>
          </label>
        ))}
      </fieldset>
      <Notice error={problem} />
      {ready ? (
        <ConfirmButton
          label="Add staff member"
          question={`Give ${email.trim()} the roles ${rolesText(roles)}?`}
          confirmLabel="Add"
          tone="primary"
          onConfirm={async () => {
            try {
              const member = await call<StaffMemberJson>('PUT', staffPath(email.trim()), {
                roles,
                ...(name.trim() !== '' && { name: name.trim() }),
              });
              setEmail('');
              setName('');
              setRoles([]);
              onDone(`${member.email} now has the roles ${rolesText(member.roles)}.`, null);
            } catch (failed) {
              onDone(null, errorText(failed));
            }
          }}
        >
          <p>They can then sign in to the back office and do what these roles allow.</p>
        </ConfirmButton>
      ) : (
        <button
          type="button"
          onClick={() => setProblem('Enter the person’s email and tick at least one role.')}
        >
          Add staff member
        </button>
      )}
    </form>
  );
};

export const StaffPage = () => {
  const staff = useLoaded(() => get<{ data: StaffMemberJson[] }>('/api/staff'), 'staff');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const done = (nextStatus: string | null, nextError: string | null) => {
    setStatus(nextStatus);
    setError(nextError);
    if (nextError === null) staff.reload();
  };
  return (
    <>
      <Title>Staff</Title>
      <p class="hint">The operator's staff and their roles, for both environments.</p>
      <Notice error={error ?? staff.error} status={status} />
      {staff.value === null ? (
        !staff.error && <Loading what="the staff" />
      ) : staff.value.data.length === 0 ? (
        <EmptyState title="Nobody is staff yet." />
      ) : (
        <TableRegion label="Staff">
          <table>
            <caption>Staff members by email</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Roles</th>
                <th scope="col">Added</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {staff.value.data.map((member) => (
                <tr key={member.email}>
                  <th scope="row">{member.email}</th>
                  <td>{member.name ?? '—'}</td>
                  <td>{rolesText(member.roles)}</td>
                  <td>{when(member.added_at)}</td>
                  <td>
                    <ConfirmButton
                      label="Remove"
                      question={`Remove ${member.email} from the staff?`}
                      confirmLabel="Remove staff member"
                      onConfirm={async () => {
                        try {
                          await call('DELETE', staffPath(member.email));
                          done(`${member.email} is no longer staff.`, null);
                        } catch (failed) {
                          done(null, errorText(failed));
                        }
                      }}
                    >
                      <p>They lose every role at once; their next action in the back office is refused.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <AddForm onDone={done} />
    </>
  );
};
