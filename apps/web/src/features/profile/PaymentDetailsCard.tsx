import { useId, useState, type FormEvent } from "react";
import {
  ACCOUNT_NAME_MAX_LENGTH,
  PAY_LINK_MAX_LENGTH,
  PAYMENT_NOTE_MAX_LENGTH,
  PaymentDetailsBodySchema,
  type PaymentDetails,
} from "@cartner/contract";
import {
  Button,
  Card,
  FieldError,
  FormAlert,
  InlineLoadError,
  InlineLoading,
  Label,
  TextField,
} from "../../components/ui/index.ts";
import { controlClasses } from "../../components/ui/Input.tsx";
import { usePaymentDetails, useSavePaymentDetails } from "../../api/payments.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/cn.ts";
import { focusFirstError, issuesToFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { toast } from "../../lib/toast.ts";

const FIELDS = ["iban", "accountName", "payLink", "note"] as const;
type Form = Record<(typeof FIELDS)[number], string>;

const toForm = (details: PaymentDetails): Form => ({
  iban: details.iban ?? "",
  accountName: details.accountName ?? "",
  payLink: details.payLink ?? "",
  note: details.note ?? "",
});

/**
 * "How you like to be paid": an IBAN with the account's name, a payment link, a note. Only the
 * members who owe you on an order see them, on its pay panel.
 */
export function PaymentDetailsCard() {
  const titleId = useId();
  const details = usePaymentDetails();
  return (
    <Card
      id="payment-details"
      role="region"
      aria-labelledby={titleId}
      className="flex flex-col gap-4 p-5 sm:p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          How you like to be paid
        </h2>
        <p className="text-sm text-slate-600">
          Only the people who owe you on an order see these, when they pay you.
        </p>
      </div>
      {details.isPending ? (
        <InlineLoading>Loading your payment details…</InlineLoading>
      ) : details.isError ? (
        <InlineLoadError
          message={errorMessage(details.error, "We couldn't load your payment details.")}
          onRetry={() => void details.refetch()}
        />
      ) : (
        <PaymentDetailsForm initial={details.data} />
      )}
    </Card>
  );
}

function PaymentDetailsForm({ initial }: { initial: PaymentDetails }) {
  const [form, setForm] = useState<Form>(() => toForm(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string>();
  const noteIds = useId();
  const save = useSavePaymentDetails({
    onSuccess: ({ details }) => {
      // The server's form of what was sent (an IBAN without spaces, upper case).
      setForm(toForm(details));
      setErrors({});
      setAlert(undefined);
      toast.success("Payment details saved.");
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      else setAlert(errorMessage(error, "We couldn't save your payment details."));
    },
  });

  const set = (field: keyof Form) => (value: string) => {
    setForm((old) => ({ ...old, [field]: value }));
    if (errors[field]) setErrors((old) => ({ ...old, [field]: undefined }));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = PaymentDetailsBodySchema.safeParse(form);
    if (!checked.success) {
      const found = issuesToFieldErrors(checked.error.issues);
      setErrors(found);
      focusFirstError(event.currentTarget, found, [...FIELDS]);
      return;
    }
    setAlert(undefined);
    save.mutate(form);
  }

  const field = (name: keyof Form) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => set(name)(event.target.value),
  });

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate aria-label="Payment details">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="IBAN"
          optional
          {...field("iban")}
          autoComplete="off"
          spellCheck={false}
          inputMode="text"
          placeholder="DE89 3704 0044 0532 0130 00"
          hint="Checked before it is saved; spaces are fine."
        />
        <TextField
          label="Account name"
          optional
          {...field("accountName")}
          autoComplete="name"
          maxLength={ACCOUNT_NAME_MAX_LENGTH}
          hint="As your bank knows you."
        />
      </div>
      <TextField
        label="Pay link"
        optional
        type="url"
        {...field("payLink")}
        inputMode="url"
        maxLength={PAY_LINK_MAX_LENGTH}
        placeholder="https://paypal.me/yourname"
        hint="An https:// link such as PayPal.me."
      />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${noteIds}-note`} optional>
          Note
        </Label>
        <textarea
          id={`${noteIds}-note`}
          name="note"
          value={form.note}
          onChange={(event) => set("note")(event.target.value)}
          rows={3}
          maxLength={PAYMENT_NOTE_MAX_LENGTH}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={errors.note ? `${noteIds}-note-error` : undefined}
          className={cn(controlClasses, "h-auto min-h-20 resize-y py-2.5")}
        />
        <FieldError id={`${noteIds}-note-error`} message={errors.note} />
      </div>
      <FormAlert message={alert} />
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending}>
          Save payment details
        </Button>
      </div>
    </form>
  );
}
