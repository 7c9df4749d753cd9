import { NativeSelect } from "../../components/ui/index.ts";
import { timeZoneChoices } from "../../lib/time-zones.ts";

/** A select of every IANA zone the browser knows (and UTC), `value` among them. */
export function TimeZoneSelect({
  id,
  value,
  onChange,
  className,
}: {
  id: string;
  value: string;
  onChange: (timeZone: string) => void;
  className?: string;
}) {
  return (
    <NativeSelect
      id={id}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      {...(className ? { className } : {})}
    >
      {timeZoneChoices(value).map((zone) => (
        <option key={zone} value={zone}>
          {zone.replaceAll("_", " ")}
        </option>
      ))}
    </NativeSelect>
  );
}
