import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/settings/account/change-password-form";
import { Card, CardBody, CardHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Account" };

export default function AccountPage() {
  return (
    <Card>
      <CardHeader
        title="Password"
        description="Changing it signs out your other browsers; this one stays signed in."
      />
      <CardBody>
        <ChangePasswordForm />
      </CardBody>
    </Card>
  );
}
